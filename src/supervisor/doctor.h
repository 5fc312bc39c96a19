/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsbox doctor, the impure half: gather the host's facts (core/doctor.h
 * judges them).  Changes nothing on the host: the user namespace is tried in
 * a short-lived child, the cgroup is judged by placement rules that only
 * read, Landlock and seccomp are asked for their versions.
 */
#pragma once

#include "core/doctor.h"

/* Fill *ret from the running kernel (proc_root: "/proc" normally). */
void nsb_doctor_gather(const char *proc_root, struct nsb_doctor_facts *ret);

/* Try to create a user namespace and write its id maps in a child; returns
 * 0, or the errno and (in step) the step that failed. */
int nsb_doctor_try_userns(char *step, size_t step_size);

/* The Landlock ABI version of the running kernel, 0 without Landlock. */
int nsb_doctor_landlock_abi(void);

/* `nsbox doctor [--json]`: argv after "doctor"; returns the exit status. */
int nsb_doctor_main(int argc, char *const *argv);
