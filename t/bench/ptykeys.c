/*
 * ptykeys - times a terminal program as a person uses it: starts it on a
 * pseudo-terminal of a given size, waits for a text on its screen (its
 * first screen is drawn), then types keys one at a time, each only when
 * the program has gone quiet after the one before, and says how long
 * each key took to be answered: from the key written to the last byte
 * of the answer.  For make bench (t/bench/run); no assertion.
 *
 *	ptykeys [-c cols] [-r rows] [-w text] [-q ms] [-t s] keys -- cmd [arg ...]
 *
 * The text waited for must be written in one piece: a word painted apart
 * (the bold key of a hint) is split by its escape sequence.
 * keys is one string, C escapes allowed (\r \n \t \e \\ \xNN); every
 * byte is one key except an escape sequence (\e followed by [ or O and
 * the rest of a CSI), which is one.  Prints on standard output
 *	first	SECONDS	(- when the text never showed)
 *	key	N	MS	KEY		(MS "-": the key changed nothing on screen)
 *	keys	COUNT	MEDIAN_MS	P90_MS	MAX_MS
 * and exits 0 when the program ended by itself after the last key (the
 * keys should quit it), 1 when it had to be killed, 2 on a usage error.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
die(const char *msg)
{
	fprintf(stderr, "ptykeys: %s\n", msg);
	exit(2);
}

/* The screen's bytes so far, to look for the ready text in. */
static char *seen;
static size_t nseen, seencap;

static void
keep(const char *p, size_t n)
{
	if (nseen + n + 1 > seencap) {
		seencap = (nseen + n + 1) * 2;
		seen = realloc(seen, seencap);
		if (seen == NULL)
			die("out of memory");
	}
	memcpy(seen + nseen, p, n);
	nseen += n;
	seen[nseen] = '\0';
}

/*
 * Reads until the program has been quiet for ms (a redraw comes in many
 * writes, and a loaded machine spaces them); returns the bytes read, 0
 * none, -1 at the end of the terminal.  *last: when the last byte came.
 */
static ssize_t
drain(int fd, int ms, double *last)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char buf[65536];
	ssize_t n, total = 0;

	while (poll(&p, 1, ms) > 0) {
		n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return total ? total : -1;
		keep(buf, (size_t)n);
		*last = now();
		total += n;
		if (p.revents & POLLHUP)
			break;
	}
	return total;
}

static size_t
unescape(const char *s, char *out)
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s != '\\' || s[1] == '\0') {
			out[n++] = *s;
			continue;
		}
		switch (*++s) {
		case 'r': out[n++] = '\r'; break;
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'e': out[n++] = 27; break;
		case 'x': {
			unsigned v = 0;
			int k;

			for (k = 0; k < 2 && s[1]; k++) {
				char c = *++s;

				v = v * 16 + (unsigned)(c >= 'a' ? c - 'a' + 10 :
					     c >= 'A' ? c - 'A' + 10 : c - '0');
			}
			out[n++] = (char)v;
			break;
		}
		default: out[n++] = *s;
		}
	}
	return n;
}

/* The length of the key at k: one byte, or a whole escape sequence. */
static size_t
key_len(const char *k, size_t n)
{
	size_t i = 2;

	if (n < 3 || k[0] != 27 || (k[1] != '[' && k[1] != 'O'))
		return 1;
	while (i < n && !(k[i] >= 0x40 && k[i] <= 0x7e))
		i++;
	return i < n ? i + 1 : n;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int cols = 80, rows = 24, quiet = 30, c, master, status;
	double limit = 60, t0, last, *lat;
	const char *ready = NULL;
	char *keys;
	size_t nkeys, nlat = 0, nth = 0;
	struct winsize ws;
	pid_t pid;

	while ((c = getopt(argc, argv, "+c:r:w:q:t:")) != -1) {
		switch (c) {
		case 'c': cols = atoi(optarg); break;
		case 'r': rows = atoi(optarg); break;
		case 'w': ready = optarg; break;
		case 'q': quiet = atoi(optarg); break;
		case 't': limit = atof(optarg); break;
		default: die("usage: ptykeys [-c cols] [-r rows] [-w text] "
			     "[-q ms] [-t s] keys -- cmd [arg ...]");
		}
	}
	if (argc - optind < 2 || strcmp(argv[optind + 1], "--") != 0 ||
	    argc - optind < 3)
		die("usage: ptykeys [-c cols] [-r rows] [-w text] [-q ms] "
		    "[-t s] keys -- cmd [arg ...]");
	keys = malloc(strlen(argv[optind]) + 1);
	lat = calloc(strlen(argv[optind]) + 1, sizeof *lat);
	if (keys == NULL || lat == NULL)
		die("out of memory");
	nkeys = unescape(argv[optind], keys);

	if ((master = posix_openpt(O_RDWR | O_NOCTTY)) < 0 ||
	    grantpt(master) != 0 || unlockpt(master) != 0)
		die("no pseudo-terminal");
	memset(&ws, 0, sizeof ws);
	ws.ws_col = (unsigned short)cols;
	ws.ws_row = (unsigned short)rows;
	t0 = now();
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		const char *name = ptsname(master);
		int slave;

		setsid();
		slave = open(name, O_RDWR);
		if (slave < 0)
			_exit(127);
		ioctl(slave, TIOCSCTTY, 0);
		ioctl(slave, TIOCSWINSZ, &ws);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(master);
		execvp(argv[optind + 2], argv + optind + 2);
		_exit(127);
	}

	/* The first screen: until the ready text shows. */
	last = t0;
	while (ready == NULL || strstr(seen ? seen : "", ready) == NULL) {
		if (now() - t0 > limit || drain(master, 100, &last) < 0)
			break;
	}
	/* Never seen: no first screen to time (the keys are still typed). */
	if (ready != NULL && strstr(seen ? seen : "", ready) == NULL)
		printf("first\t-\n");
	else
		printf("first\t%.3f\n", last - t0);
	/* Whatever follows the first screen, then each key. */
	drain(master, quiet, &last);
	for (size_t i = 0; i < nkeys;) {
		size_t k = key_len(keys + i, nkeys - i);
		double sent;
		ssize_t got;

		nth++;
		sent = now();
		last = sent;
		if (write(master, keys + i, k) != (ssize_t)k)
			break;
		got = drain(master, quiet, &last);
		/* A slow answer: wait for its first byte, two seconds at most. */
		while (got == 0 && now() - sent < 2 &&
		       (got = drain(master, 100, &last)) == 0)
			;
		if (got > 0) {
			drain(master, quiet, &last);
			lat[nlat++] = (last - sent) * 1000;
			printf("key\t%zu\t%.2f\t", nth, (last - sent) * 1000);
		} else {
			/* Nothing to redraw (a page down at the end): no
			 * answer to time. */
			printf("key\t%zu\t-\t", nth);
		}
		for (size_t j = 0; j < k; j++)
			printf(keys[i + j] >= 0x20 && keys[i + j] < 0x7f ? "%c" :
			       "\\x%02x", (unsigned char)keys[i + j]);
		printf("\n");
		i += k;
		if (got < 0)
			break;
	}
	qsort(lat, nlat, sizeof *lat, cmp_double);
	if (nlat > 0)
		printf("keys\t%zu\t%.2f\t%.2f\t%.2f\n", nlat, lat[nlat / 2],
		       lat[(nlat * 9) / 10 < nlat ? (nlat * 9) / 10 : nlat - 1],
		       lat[nlat - 1]);
	free(keys);
	free(lat);
	/* The keys should have quit it; if not, it is ended. */
	for (int w = 0; w < 50; w++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			free(seen);
			return 0;
		}
		drain(master, 100, &last);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	free(seen);
	return 1;
}
