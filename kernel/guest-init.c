// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init - PID 1 of the lab guest.
 *
 * The guest's root file system is the host's root, shared read-only over
 * virtio-9p. This program makes the writable places and mounts the kernel's
 * file systems and the lab's two 9p shares with plain mount(2) calls (under
 * TCG every exec over 9p costs a tenth of a second or more, so a shell doing
 * a dozen mounts was the slowest part of the boot), then runs the job runner
 * kernel/guest-job.sh with bash as its child.
 *
 * It stays PID 1 to the end: it reaps every orphan, and when the job runner
 * exits, the job's deadline passes or the ACPI power button is pressed (the
 * host's QEMU system_powerdown, sent when its own deadline passes), it stops
 * every process left, syncs (for a bounded time) and powers off with
 * reboot(2) itself. Nothing else runs while the kernel
 * takes the CPUs offline. (An asynchronous power-off, sysrq 'o' from a bash
 * PID 1 that then ran sleep, raced with that fork: "Unexpected reschedule of
 * offline CPU" and a WARNING in native_smp_send_reschedule.)
 *
 * Shares: "labsrc" (the repository, read-only) at /run/lab/src and "labout"
 * (the run's results folder, writable) at /run/lab/out.
 *
 * Deadline: when the host wrote a number of seconds into
 * /run/lab/out/guest/deadline, a job still running that long after this
 * program started is stopped; guest/deadline-passed then records it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SRC "/run/lab/src"
#define OUT "/run/lab/out"
#define P9_OPTS "trans=virtio,version=9p2000.L,msize=262144"
/* How long processes left at the end get after SIGTERM, then after SIGKILL */
#define GRACE_MS 2000
/* How long the sync before the power-off may take */
#define SYNC_MS 10000
/* The input devices searched for the power button */
#define MAX_EVENT_DEVICES 32
#define LONG_BITS (8 * sizeof(long))

struct lab_mount {
	const char *source, *target, *type;
	unsigned long flags;
	const char *data;
};

static const struct lab_mount mounts[] = {
	{ "proc", "/proc", "proc", 0, NULL },
	{ "sysfs", "/sys", "sysfs", 0, NULL },
	{ "devtmpfs", "/dev", "devtmpfs", 0, NULL },
	{ "devpts", "/dev/pts", "devpts", 0, NULL },
	{ "tmpfs", "/dev/shm", "tmpfs", 0, NULL },
	{ "tmpfs", "/run", "tmpfs", 0, "mode=755" },
	{ "labsrc", SRC, "9p", MS_RDONLY, P9_OPTS ",cache=loose" },
	{ "labout", OUT, "9p", 0, P9_OPTS },
	{ "tmpfs", "/tmp", "tmpfs", 0, "mode=1777" },
	{ "tmpfs", "/var/tmp", "tmpfs", 0, "mode=1777" },
	{ "tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL },
	{ "debugfs", "/sys/kernel/debug", "debugfs", 0, NULL },
	{ "bpf", "/sys/fs/bpf", "bpf", 0, NULL },
	{ "cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL },
};

static void mount_all(void)
{
	size_t i;

	for (i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		const struct lab_mount *m = &mounts[i];

		/* The mount points under tmpfs mounts do not exist yet */
		if (!strncmp(m->target, "/run/lab/", 9))
			mkdir("/run/lab", 0755);
		if (!strncmp(m->target, "/run/", 5) || !strncmp(m->target, "/dev/", 5))
			mkdir(m->target, 0755);
		if (mount(m->source, m->target, m->type, m->flags, m->data))
			fprintf(stderr, "lab-init: mount %s on %s (%s): %s\n",
				m->source, m->target, m->type, strerror(errno));
	}
}

/* Seconds in OUT/guest/deadline, 0 when there is none */
static unsigned int read_deadline(void)
{
	unsigned int secs = 0;
	FILE *f = fopen(OUT "/guest/deadline", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &secs) != 1) {
		fprintf(stderr, "lab-init: " OUT "/guest/deadline holds no number of seconds\n");
		secs = 0;
	}
	fclose(f);
	return secs;
}

static pid_t start_job(void)
{
	char *const argv[] = { "bash", SRC "/kernel/guest-job.sh", NULL };
	char *const envp[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/tmp", "TERM=linux", "LANG=C.UTF-8",
		"LAB_SRC=" SRC, "LAB_OUT=" OUT, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve("/bin/bash", argv, envp);
		perror("lab-init: exec bash " SRC "/kernel/guest-job.sh");
		_exit(127);
	}
	if (pid < 0)
		perror("lab-init: fork");
	return pid;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void mark_deadline_passed(void)
{
	int fd = open(OUT "/guest/deadline-passed", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0)
		close(fd);
	printf("lab-init: the job's deadline passed; stopping it\n");
}

/*
 * The input device of the ACPI power button (one with KEY_POWER), opened
 * without blocking, or -1 when there is none
 */
static int open_power_button(void)
{
	unsigned long keys[KEY_MAX / LONG_BITS + 1];
	char path[64];
	int i, fd;

	for (i = 0; i < MAX_EVENT_DEVICES; i++) {
		snprintf(path, sizeof(path), "/dev/input/event%d", i);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(keys, 0, sizeof(keys));
		if (ioctl(fd, EVIOCGBIT(EV_KEY, sizeof(keys)), keys) >= 0 &&
		    (keys[KEY_POWER / LONG_BITS] >> (KEY_POWER % LONG_BITS) & 1))
			return fd;
		close(fd);
	}
	return -1;
}

/* Read what @fd has: true when the power button was pressed */
static bool power_pressed(int fd)
{
	struct input_event ev[16];
	bool pressed = false;
	ssize_t r;
	size_t i;

	while ((r = read(fd, ev, sizeof(ev))) > 0)
		for (i = 0; i < (size_t)r / sizeof(ev[0]); i++)
			if (ev[i].type == EV_KEY && ev[i].code == KEY_POWER && ev[i].value)
				pressed = true;
	return pressed;
}

/*
 * Wait for @job, reaping orphans, until it exits, @deadline_ms (0: none)
 * passes or the power button (@button, -1: none) is pressed. SIGCHLD is
 * blocked and read from a signalfd, so the guest gets no wake-up but a
 * child's exit or the button, and no exit is lost between checks.
 */
static void wait_job(pid_t job, long long deadline_ms, int button)
{
	struct signalfd_siginfo si;
	sigset_t chld;
	int st, sfd;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		perror("lab-init: signalfd (children are reaped every 100 ms)");
	for (;;) {
		struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
				       { .fd = button, .events = POLLIN } };
		long long ms = -1;
		pid_t pid;

		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			if (pid != job)
				continue;
			if (WIFEXITED(st))
				printf("lab-init: job runner exited %d\n", WEXITSTATUS(st));
			else
				printf("lab-init: job runner killed by signal %d\n", WTERMSIG(st));
			goto out;
		}
		if (pid < 0 && errno == ECHILD)
			goto out;
		if (deadline_ms) {
			ms = deadline_ms - now_ms();
			if (ms <= 0) {
				mark_deadline_passed();
				goto out;
			}
		}
		if (sfd < 0 && (ms < 0 || ms > 100))
			ms = 100;
		/* a negative fd is left out by poll() */
		if (poll(p, 2, ms > INT32_MAX ? INT32_MAX : (int)ms) < 0 && errno != EINTR)
			perror("lab-init: poll");
		while (sfd >= 0 && read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			;
		if (button >= 0 && (p[1].revents & POLLIN) && power_pressed(button)) {
			printf("lab-init: the power button was pressed; stopping the job\n");
			goto out;
		}
	}
out:
	if (sfd >= 0)
		close(sfd);
}

/* Reap children for up to @ms; true when none is left */
static bool reap_all(long long ms)
{
	long long end = now_ms() + ms;

	for (;;) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			return true;
		if (pid > 0)
			continue;
		if (now_ms() >= end)
			return false;
		usleep(10000);
	}
}

/*
 * sync(2) in a child, waited for at most SYNC_MS: over a 9p share that no
 * longer answers it would block for ever, and the power-off with it
 */
static void sync_bounded(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		sync();
		_exit(0);
	}
	if (pid < 0) {
		perror("lab-init: fork for sync (powering off without it)");
		return;
	}
	if (!reap_all(SYNC_MS))
		printf("lab-init: sync did not finish in %d ms; powering off without it\n",
		       SYNC_MS);
}

/* Stop every process but this one: SIGTERM, then SIGKILL */
static void stop_all(void)
{
	kill(-1, SIGTERM);
	if (reap_all(GRACE_MS))
		return;
	kill(-1, SIGKILL);
	if (!reap_all(GRACE_MS))
		printf("lab-init: processes left after SIGKILL\n");
}

int main(void)
{
	const struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	long long deadline_ms = 0;
	unsigned int deadline;
	sigset_t chld;
	int button;
	pid_t job;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_all();
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited))
		perror("lab-init: setrlimit(RLIMIT_MEMLOCK)");
	if (sethostname("lab", 3))
		perror("lab-init: sethostname");

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	deadline = read_deadline();
	if (deadline)
		deadline_ms = now_ms() + deadline * 1000LL;
	button = open_power_button();
	if (button < 0)
		printf("lab-init: no power button (CONFIG_ACPI_BUTTON, CONFIG_INPUT_EVDEV): "
		       "the host's system_powerdown is not heard\n");
	job = start_job();
	if (job > 0)
		wait_job(job, deadline_ms, button);
	stop_all();
	sync_bounded();
	printf("lab-init: powering off\n");
	/*
	 * reboot(RB_POWER_OFF) does not return. When the machine cannot power
	 * off, the kernel ends the calling process instead, and the end of PID
	 * 1 is a kernel panic ("Attempted to kill init!"), after which QEMU
	 * exits (panic=-1 and -no-reboot, bench/vm.sh). It returns only when
	 * this process may not power the machine off (EPERM): returning from
	 * main then ends PID 1, with the same panic.
	 */
	reboot(RB_POWER_OFF);
	perror("lab-init: reboot(RB_POWER_OFF)");
	return 1;
}
