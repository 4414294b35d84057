/* HIP and CUDA versions as comparable integers: 6.2.1 -> 6002001, 0 = none. */
#ifndef HIPPORT_PORT_VERSION_H
#define HIPPORT_PORT_VERSION_H

#include <stddef.h>

typedef unsigned long port_version;

#define PORT_VERSION(major, minor, patch) \
	((port_version)(major) * 1000000ul + (port_version)(minor) * 1000ul + (port_version)(patch))

/* Parses "MAJOR.MINOR[.PATCH]" (len bytes); returns 0 and sets out, or -1. */
int port_version_parse(port_version *out, const char *text, size_t len);

/* Writes "MAJOR.MINOR" (or "MAJOR.MINOR.PATCH" when patch is set) into buf. */
void port_version_format(char *buf, size_t size, port_version v);

#endif
