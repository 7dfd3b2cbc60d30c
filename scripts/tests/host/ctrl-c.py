#!/usr/bin/env python3
"""ctrl-c.py WAITFILE LOG CMD...: a terminal's Ctrl-C, simulated.

Starts CMD in a session of its own with the default SIGINT disposition (as
a shell on a terminal would; a background job of a script would ignore
SIGINT), waits until WAITFILE exists (at most 20 s), sends SIGINT to the
whole process group (what the terminal does) and prints "rc RC SECONDS":
CMD's exit status and the seconds it took to end after the signal ("hung"
if it did not end within 10 s; then the group is killed)."""
import os, signal, subprocess, sys, time

waitfile, log, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
p = subprocess.Popen(cmd, start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                     stdin=subprocess.DEVNULL, stdout=open(log, 'w'), stderr=subprocess.STDOUT)
end = time.time() + 20
while not os.path.exists(waitfile) and time.time() < end and p.poll() is None:
    time.sleep(0.05)
time.sleep(0.3)
t0 = time.time()
try:
    os.killpg(p.pid, signal.SIGINT)
except ProcessLookupError:
    pass
try:
    rc = p.wait(timeout=10)
    print('rc %s %.2f' % (rc, time.time() - t0))
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    print('rc hung 10')
