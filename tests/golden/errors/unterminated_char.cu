const char sep = ';
