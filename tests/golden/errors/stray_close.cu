void f() { }
}
