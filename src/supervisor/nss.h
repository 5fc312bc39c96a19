/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Name lookups (getpwuid, getaddrinfo) in a static nsbox (the Makefile's
 * STATIC=all): glibc's files and dns modules are built into libc.a, and
 * any other module nsswitch.conf names (systemd, sss, resolve, mdns, ...)
 * would be loaded with dlopen into a process that has no dynamic loader of
 * its own.  That mixes two glibc's in one process, and crashes: a static
 * getpwuid of a uid that /etc/passwd lacks dies with SIGSEGV in Debian
 * 12's libnss_systemd.  So a static nsbox looks names up with the built-in
 * modules only, whatever nsswitch.conf says: users and groups in
 * /etc/passwd and /etc/group, hosts in /etc/hosts and then by DNS
 * (/etc/resolv.conf).  A dynamic nsbox uses the host's configuration.
 */
#pragma once

/*
 * Restrict the lookups, once, before the first one (and before a thread
 * of the supervisor makes one).  0, or -errno where glibc refused the
 * setting: the lookup must then not be made.
 */
int nsb_nss_builtin_only(void);
