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
 * exits, or the job's deadline passes, it stops every process left, syncs
 * and powers off with reboot(2) itself. Nothing else runs while the kernel
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
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SRC "/run/lab/src"
#define OUT "/run/lab/out"
#define P9_OPTS "trans=virtio,version=9p2000.L,msize=262144"
/* How long processes left at the end get after SIGTERM, then after SIGKILL */
#define GRACE_MS 2000

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
 * Wait for @job, reaping orphans, until it exits or @deadline_ms (0: none)
 * passes. SIGCHLD is blocked and taken with sigtimedwait(), so the guest gets
 * no wake-up but a child's exit, and no signal is lost between checks.
 */
static void wait_job(pid_t job, long long deadline_ms)
{
	sigset_t chld;
	int st;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		struct timespec left;
		long long ms;
		pid_t pid;

		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			if (pid != job)
				continue;
			if (WIFEXITED(st))
				printf("lab-init: job runner exited %d\n", WEXITSTATUS(st));
			else
				printf("lab-init: job runner killed by signal %d\n", WTERMSIG(st));
			return;
		}
		if (pid < 0 && errno == ECHILD)
			return;
		if (!deadline_ms) {
			sigwaitinfo(&chld, NULL);
			continue;
		}
		ms = deadline_ms - now_ms();
		if (ms <= 0) {
			mark_deadline_passed();
			return;
		}
		left.tv_sec = ms / 1000;
		left.tv_nsec = (ms % 1000) * 1000000;
		sigtimedwait(&chld, NULL, &left);
	}
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
	job = start_job();
	if (job > 0)
		wait_job(job, deadline_ms);
	stop_all();
	sync();
	printf("lab-init: powering off\n");
	reboot(RB_POWER_OFF);
	/* PID 1 must not exit: that is a panic. The host's deadline ends QEMU. */
	perror("lab-init: reboot(RB_POWER_OFF)");
	for (;;)
		pause();
}
