#include "port/version.h"

#include <stdio.h>

int port_version_parse(port_version *out, const char *text, size_t len)
{
	unsigned long part[3] = { 0, 0, 0 };
	size_t i = 0;
	int n = 0, digits = 0;

	for (; i < len; i++) {
		char c = text[i];

		if (c >= '0' && c <= '9') {
			if (part[n] > 99999)
				return -1;
			part[n] = part[n] * 10 + (unsigned long)(c - '0');
			digits++;
		} else if (c == '.' && digits && n < 2) {
			n++;
			digits = 0;
		} else {
			return -1;
		}
	}
	if (!digits || n < 1 || part[1] > 999 || part[2] > 999)
		return -1;
	*out = PORT_VERSION(part[0], part[1], part[2]);
	return 0;
}

void port_version_format(char *buf, size_t size, port_version v)
{
	unsigned long major = v / 1000000ul, minor = v / 1000ul % 1000ul, patch = v % 1000ul;

	if (patch)
		snprintf(buf, size, "%lu.%lu.%lu", major, minor, patch);
	else
		snprintf(buf, size, "%lu.%lu", major, minor);
}
