#!/usr/bin/env python3
"""Keystroke echo latency through a multiplexer client: runs CLIENT on a
pty of our own, types one character at a time into a pane running `cat`,
and times until that character comes back in the client's output.
Prints the median and 90th percentile in milliseconds.
usage: mux-echo.py N CLIENT [ARG...]"""
import os, pty, select, statistics, sys, time

n = int(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execvp(sys.argv[2], sys.argv[2:])

def drain(until=None, timeout=2.0):
    """Reads output; returns True once `until` (bytes) was seen."""
    seen = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], max(0, end - time.monotonic()))
        if not r:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        seen += chunk
        if until is not None and until in seen:
            return True
    return until is None

drain(timeout=1.5)                  # the first screen
os.write(fd, b"cat\r")
drain(timeout=1.0)
times = []
for i in range(n):
    ch = b"abcdefghijklmnopqrstuvwxyz"[i % 26:i % 26 + 1]
    t0 = time.monotonic()
    os.write(fd, ch)
    if drain(until=ch, timeout=1.0):
        times.append((time.monotonic() - t0) * 1000)
    if i % 60 == 59:
        os.write(fd, b"\r")
        drain(timeout=0.05)
os.write(fd, b"\x03")
times.sort()
if times:
    print("median %.2f ms, p90 %.2f ms (%d keys)" % (statistics.median(times), times[int(len(times) * 0.9)], len(times)))
else:
    print("no echo seen")
os.kill(pid, 9)
