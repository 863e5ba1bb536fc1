// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init - PID 1 of the lab guest.
 *
 * The guest's root file system is the host's root, shared read-only over
 * virtio-9p. This program makes the writable places and mounts the kernel's
 * file systems and the lab's two 9p shares with plain mount(2) calls (under
 * TCG every exec over 9p costs a tenth of a second or more, so a shell doing
 * a dozen mounts was the slowest part of the boot), then runs the job runner
 * kernel/guest-job.sh with bash. If that fails to start, it powers off.
 *
 * Shares: "labsrc" (the repository, read-only) at /run/lab/src and "labout"
 * (the run's results folder, writable) at /run/lab/out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC "/run/lab/src"
#define OUT "/run/lab/out"
#define P9_OPTS "trans=virtio,version=9p2000.L,msize=262144"

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

int main(void)
{
	const struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	char *const argv[] = { "bash", SRC "/kernel/guest-job.sh", NULL };
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
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited))
		perror("lab-init: setrlimit(RLIMIT_MEMLOCK)");
	if (sethostname("lab", 3))
		perror("lab-init: sethostname");

	execve("/bin/bash", argv, (char *const[]){
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/tmp", "TERM=linux", "LANG=C.UTF-8",
		"LAB_SRC=" SRC, "LAB_OUT=" OUT, NULL });
	perror("lab-init: exec bash " SRC "/kernel/guest-job.sh");
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
