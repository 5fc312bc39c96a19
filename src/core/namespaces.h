/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The namespaces a sandbox is made of, as a bit set: the supervisor's clone
 * creates them (spawn.c), the record names them (enforced.namespaces).
 */
#pragma once

enum {
	NSB_NS_USER = 1 << 0,
	NSB_NS_MOUNT = 1 << 1,
	NSB_NS_PID = 1 << 2,
	NSB_NS_NET = 1 << 3,
	NSB_NS_IPC = 1 << 4,
	NSB_NS_UTS = 1 << 5,
	NSB_NS_CGROUP = 1 << 6,
};
