/* test_scan_portable.c - test_scan.c over the plain-C masks. */
#define SP_SCAN_PORTABLE 1
#include "test_scan.c"
