// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The built-in wrapper and deny-mode tables, written as policy text
 * (nsbox-policy(5)): what --print-policy shows and what an operator's file
 * extends or replaces entry by entry.  Options are listed from each tool's
 * manual.  A wrapper's unknown option is refused (it might take a value,
 * and then the command is not where the gate looks), so a missing option
 * costs a refusal with a clear message, never a bypass; "lenient" is only
 * for tools whose options never take a separate value.
 */
#include <stddef.h>

#include "gate/gate_tables.h"

const char *const nsb_gate_builtin_tables[] = {
	/* process state: environment, priority, session, buffering, time */
	"wrapper env run=env dash -i -0 -v -u= -a= -S% -C! --ignore-environment --null --debug "
	"--list-signal-handling --unset= --argv0= --block-signal? --default-signal? "
	"--ignore-signal? --split-string% --chdir!",
	"wrapper nice adjust -n= --adjustment=",
	"wrapper nohup",
	"wrapper setsid -c -f -w -h. -V. --ctty --fork --wait",
	"wrapper stdbuf -i= -o= -e= --input= --output= --error=",
	"wrapper time -p -v -q -a -f= -o= --format= --output= --portability --verbose --quiet "
	"--append",
	"wrapper command -p -v. -V.",
	"wrapper chronic -e -v",
	"wrapper unbuffer -p",
	"wrapper eatmydata",
	"wrapper catchsegv",
	"wrapper nocache",
	"wrapper run-one",
	"wrapper faketime skip=1 -m -f -p= --exclude-monotonic --date-prog!",
	/* scheduling */
	"wrapper ionice -t -c= -n= -p= -P= -u= --ignore --class= --classdata= --pid= --pgid= "
	"--uid=",
	"wrapper chrt skip=1 -a -b -d -f -i -o -r -R -v -m. -p. -T= -P= -D= --all-tasks --batch "
	"--deadline --fifo --idle --other --rr --reset-on-fork --verbose --max. --pid. "
	"--sched-runtime= --sched-period= --sched-deadline=",
	"wrapper taskset skip=1 -a -c -p. --all-tasks --cpu-list --pid.",
	"wrapper numactl -a -b -l -s. -H. -i= -m= -N= -C= -p= -w= --all --balancing --localalloc "
	"--show. --hardware. --interleave= --membind= --cpunodebind= --physcpubind= --preferred= "
	"--preferred-many= --weighted-interleave=",
	"wrapper setarch skip=1 -R -F -Z -L -X -B -I -S -T -3 -v --addr-no-randomize "
	"--fdpic-funcptrs --mmap-page-zero --addr-compat-layout --read-implies-exec --32bit "
	"--short-inode --whole-seconds --sticky-timeouts --3gb --4gb --uname-2.6 --verbose "
	"--list.",
	"wrapper linux32 -R -F -Z -L -X -B -I -S -T -3 -v --addr-no-randomize --uname-2.6 "
	"--verbose",
	"wrapper linux64 -R -F -Z -L -X -B -I -S -T -3 -v --addr-no-randomize --uname-2.6 "
	"--verbose",
	"wrapper at run=input -m -M -v -l. -r. -d. -c. -V. -q= -f= -u= -t=",
	"wrapper batch run=input -m -M -v -V. -q= -f=",
	/* limits */
	"wrapper timeout skip=1 -v -f -p -s= -k= --signal= --kill-after= --verbose --foreground "
	"--preserve-status",
	"wrapper prlimit -o= -p. --output= --pid. --noheadings --raw --verbose -c? -d? -e? -f? -i? "
	"-l? -m? -n? -q? -r? -s? -t? -u? -v? -x? -y? --core? --data? --nice? --fsize? "
	"--sigpending? --memlock? --rss? --nofile? --msgqueue? --rtprio? --stack? --cpu? "
	"--nproc? --as? --locks? --rttime?",
	"wrapper cpulimit -v -z -i -b -q -k -r -l= -c= -p= -e= -s= --verbose --lazy "
	"--include-children --background --quiet --kill --restore --limit= --cpu= --pid= --exe= "
	"--path= --signal=",
	"wrapper cgexec -g= --sticky",
	"wrapper systemd-inhibit --what= --who= --why= --mode= --list.",
	/* locks */
	"wrapper flock skip=1 -s -x -e -u -n -o -F -w= -E= -c! --shared --exclusive --unlock "
	"--nonblock --nb --close --no-fork --verbose --timeout= --wait= --conflict-exit-code= "
	"--command!",
	"wrapper lckdo skip=1 -q -w -W=",
	"wrapper with-lock-ex skip=1 -w -q -f",
	"wrapper setlock skip=1 -n -N -x -X",
	"wrapper envdir skip=1",
	/* repeaters and runners fed from input */
	"wrapper watch shell -b -c -C -e -g -p -t -w -x -r -d? -n= -q= --beep --color --no-color "
	"--errexit --chgexit --precise --no-title --no-wrap --no-linewrap --exec --no-rerun "
	"--differences? --interval= --equexit=",
	"wrapper xargs input-args -0 -r -t -p -x -o -a= -d= -E= -L= -n= -P= -s= -e? -l? -I@ -i?@ "
	"--null --no-run-if-empty --verbose --interactive --exit --open-tty --show-limits "
	"--arg-file= --delimiter= --max-args= --max-procs= --max-chars= --process-slot-var= "
	"--eof? --max-lines? --replace?@",
	"wrapper parallel input-args input-commands shell subst={ end=::: -0 -k -v -q -u -g -X -m "
	"-t -r -j= -P= -N= -n= -L= -l? -a= -d= -E= -C= -S= -I@ -i?@ --null --keep-order --verbose "
	"--quote --ungroup --group --line-buffer --lb --xargs --tag --tty --progress --bar --eta "
	"--dry-run --will-cite --no-notice --no-run-if-empty --halt-on-error= --jobs= "
	"--max-procs= --max-args= --max-lines= --arg-file= --delimiter= --colsep= --results= "
	"--res= --joblog= --tmpdir= --timeout= --delay= --retries= --halt= --memfree= --load= "
	"--sshlogin= --workdir= --tagstring= --header= --nice= --block= --pipe --shuf --plus "
	"--version. --help. --citation. --replace?@",
	"wrapper entr -a -c -d -n -p -r -z -s!",
	"wrapper find run=find lenient",
	/* agents, sessions, fake roots, displays, proxies, password feeders */
	"wrapper ssh-agent -c -s -D -d -k. -a= -E= -t= -P= -O=",
	"wrapper dbus-run-session --config-file= --dbus-daemon!",
	"wrapper dbus-launch --sh-syntax --csh-syntax --auto-syntax --binary-syntax --close-stderr "
	"--exit-with-session --exit-with-x11 --autolaunch= --config-file=",
	"wrapper fakeroot -u -h. -v. -l= -i= -s= -b= --lib= --faked! --unknown-is-real",
	"wrapper fakechroot -s -l= -e= -c= -b= -d! --lib= --environment= --config-dir= --bindir= "
	"--elfloader! --use-system-libs",
	"wrapper xvfb-run -a -l -e= -f= -n= -p= -s= -w= --auto-servernum --listen-tcp "
	"--error-file= --auth-file= --server-num= --xauth-protocol= --server-args= --wait=",
	"wrapper proxychains -q -f=",
	"wrapper proxychains4 -q -f=",
	"wrapper torsocks -d -q -i -a= -P= -u= -p= --debug --quiet --isolate --address= --port= "
	"--user= --pass= --shell!",
	"wrapper sshpass -e -v -h. -V. -p= -f= -d= -P=",
	"wrapper dumb-init -c -v -V. -h. -r= --single-child --verbose --rewrite=",
	"wrapper tini -s -v -w -g -l. -h. -p= -e=",
	/* tracers and checkers run the program they are given */
	"wrapper strace -c -C -d -D -f -F -i -k -n -q -r -t -T -v -w -x -y -z -Z -h. -V. -o= -e= "
	"-p= -s= -u= -E= -a= -b= -I= -P= -S= -X= -O= -U= --output= --trace= --signal= "
	"--status= --summary-only --summary --follow-forks --output-separately --attach= "
	"--string-limit= --user= --env= --seccomp-bpf --absolute-timestamps? --timestamps? "
	"--relative-timestamps? --syscall-times? --decode-fds? --decode-pids? --stack-trace "
	"--quiet? --verbose? --abbrev? --raw= --read= --write= --inject= --fault= --columns= "
	"--const-print-style= --successful-only --failed-only --instruction-pointer --no-abbrev "
	"--summary-columns= --summary-sort-by= --summary-syscall-overhead= --argv0=",
	"wrapper ltrace -b -c -C -f -i -L -r -S -t -T -h. -V. -o= -e= -p= -s= -u= -l= -n= -a= -A= "
	"-D= -F= -x= -w= --output= --library= --demangle --align= --indent= --config= "
	"--no-signals",
	"wrapper valgrind lenient",
	/* multi-call binaries: the first operand names the applet */
	"wrapper busybox run=applet --list. --list-full. --install. --help.",
	"wrapper toybox run=applet --long. --help. --version.",
	"wrapper coreutils run=applet --coreutils-prog% --help. --version.",
	"wrapper kmod run=applet --help. --version.",
	/* ordinary tools in a mode that deletes files */
	"deny-mode find -delete",
	"deny-mode cmake -E rm",
	"deny-mode cmake -E remove",
	"deny-mode cmake -E remove_directory",
	"deny-mode git clean -f",
	"deny-mode git clean --force",
	NULL,
};
