// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs and uleds: a uleds LED with the pattern trigger, its attributes,
 * and the changes read from /dev/uleds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/uleds.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "ledjitter.h"
#include "timing.h"

const char *const mode_names[NMODES] = { "pattern", "abs_pattern", "hr_pattern" };

void parse_modes(const char *s, bool modes[NMODES])
{
	int m;

	for (m = 0; m < NMODES; m++)
		modes[m] = !strcmp(s, mode_names[m]) || !strcmp(s, "all") ||
			   (!strcmp(s, "both") && m != MODE_HR);
	if (!modes[MODE_PATTERN] && !modes[MODE_ABS] && !modes[MODE_HR])
		lab_usage_error("--mode '%s' is not a mode (expected pattern, abs_pattern, "
				"hr_pattern, both or all)", s);
}

bool mode_is_abs(const char *mode)
{
	return !strcmp(mode, mode_names[MODE_ABS]);
}

bool mode_is_hrtimer(const char *mode)
{
	return mode_is_abs(mode) || !strcmp(mode, mode_names[MODE_HR]);
}

int sysfs_open(const char *led, const char *attr)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), LEDS_DIR "/%s/%s", led, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sysfs_write_fd(int fd, const char *val)
{
	ssize_t w = write(fd, val, strlen(val));

	if (w < 0)
		return -errno;
	return (size_t)w != strlen(val) ? -EIO : 0;
}

int sysfs_write(const char *led, const char *attr, const char *val)
{
	int fd = sysfs_open(led, attr), err;

	if (fd < 0)
		return fd;
	err = sysfs_write_fd(fd, val);
	close(fd);
	return err;
}

/* The attribute's text without the trailing newline; -errno on error */
int sysfs_read(const char *led, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t r;
	int fd, err;

	snprintf(path, sizeof(path), LEDS_DIR "/%s/%s", led, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, len - 1);
	err = r < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[r] = '\0';
	if (r > 0 && buf[r - 1] == '\n')
		buf[r - 1] = '\0';
	return 0;
}

bool led_has(const char *led, const char *attr)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), LEDS_DIR "/%s/%s", led, attr);
	return access(path, F_OK) == 0;
}

/*
 * uled_create - register a uleds LED named @name (max brightness 255) and
 * return the open /dev/uleds descriptor; the LED lives until it is closed.
 * uleds reports the initial brightness as a first event: it is read here.
 */
int uled_create(const char *name)
{
	struct uleds_user_dev dev = { .max_brightness = MAX_BRIGHTNESS };
	struct pollfd p;
	int fd, b;

	snprintf(dev.name, sizeof(dev.name), "%s", name);
	fd = open("/dev/uleds", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		lab_die("cannot open /dev/uleds: %s (a kernel with CONFIG_LEDS_USER is needed)",
			strerror(errno));
	if (write(fd, &dev, sizeof(dev)) != (ssize_t)sizeof(dev))
		lab_die("cannot register the uleds LED '%s': %s", name, strerror(errno));
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&p, 1, 0) == 1 && read(fd, &b, sizeof(b)) < 0)
		lab_die("cannot read /dev/uleds: %s", strerror(errno));
	return fd;
}

/* Put the pattern trigger on @led, or exit when the kernel has none */
void led_set_trigger(const char *led)
{
	int err = sysfs_write(led, "trigger", "pattern");

	if (err)
		lab_die("cannot select the pattern trigger for LED %s: %s "
			"(CONFIG_LEDS_TRIGGER_PATTERN?)", led, strerror(-err));
}

/* HZ of the running kernel from /proc/config.gz, 0 when unknown */
unsigned int kernel_hz(void)
{
	char line[256];
	unsigned int hz = 0;
	gzFile z = gzopen("/proc/config.gz", "rb");

	if (!z)
		return 0;
	while (gzgets(z, line, sizeof(line)))
		if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
			break;
	gzclose(z);
	return hz;
}

/*
 * The modes this kernel offers, from a throwaway LED's attributes: pattern
 * always, abs_pattern with the lab's patch, hr_pattern when it is
 * mainline's. The lab's 6.1 series named its absolute trigger hr_pattern
 * before it was renamed abs_pattern, so an hr_pattern counts as mainline's
 * only on a kernel of 6.10 or later, where mainline added it.
 */
void kernel_modes(bool has[NMODES])
{
	struct utsname u;
	char name[64];
	int fd, m;

	snprintf(name, sizeof(name), "lj-probe-%d", (int)getpid());
	fd = uled_create(name);
	led_set_trigger(name);
	for (m = 0; m < NMODES; m++)
		has[m] = led_has(name, mode_names[m]);
	close(fd);
	if (uname(&u) || !release_has_mainline_hr(u.release))
		has[MODE_HR] = false;
}

bool release_has_mainline_hr(const char *release)
{
	int major, minor;

	return sscanf(release, "%d.%d", &major, &minor) == 2 &&
	       (major > 6 || (major == 6 && minor >= 10));
}

/* Lock memory and run at SCHED_FIFO @prio (0: stay normal), like cyclictest -m -p */
void go_realtime(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "%s: mlockall: %s (going on)\n", lab_prog, strerror(errno));
	if (prio && sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "%s: SCHED_FIFO %d: %s (going on at normal priority)\n", lab_prog,
			prio, strerror(errno));
}

void reads_add(struct reads *r, uint64_t t, int b)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->t = lab_realloc(r->t, r->cap, sizeof(*r->t), "LED changes");
		r->b = lab_realloc(r->b, r->cap, sizeof(*r->b), "LED changes");
	}
	r->t[r->n] = t;
	r->b[r->n++] = b;
}

void reads_free(struct reads *r)
{
	free(r->t);
	free(r->b);
	*r = (struct reads){ 0 };
}

/*
 * collect - read the LED's changes until @want were read, or no change came
 * for @quiet_ms once CLOCK_MONOTONIC passed @not_before (ns; 0: at once), or
 * @deadline passed. Returns 0, or 1 when the deadline ended it.
 */
int collect(int fd, struct reads *r, size_t want, int quiet_ms, uint64_t not_before,
	    uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int b, rc;

	while (r->n < want) {
		if (mono_ns() >= deadline)
			return 1;
		rc = poll(&p, 1, quiet_ms);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			lab_die("poll on /dev/uleds: %s", strerror(errno));
		}
		if (rc == 0 && mono_ns() >= not_before)
			return 0;
		if (rc == 0)
			continue;
		if (read(fd, &b, sizeof(b)) != (ssize_t)sizeof(b))
			lab_die("read from /dev/uleds: %s", strerror(errno));
		reads_add(r, mono_ns(), b);
	}
	return 0;
}
