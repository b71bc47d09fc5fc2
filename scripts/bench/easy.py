#!/usr/bin/env python3
"""A lean EASY-backfilling replay of an SWF trace: issue 13's yardstick.

fairsim's KTH EASY replay must run at least 5x faster than this, measured
in the same `make bench`. It does what fairsim's easy scheduler does on a
trace whose nodes are single processors (KTH-SP2: 100 nodes x 1): jobs in
arrival order; the first job that does not fit gets a reservation at the
earliest time enough processors are released by the running jobs' limits
(the shadow time); later jobs start now if they fit and either end by the
shadow time or use only the processors left over at it. It writes one CSV
line per job (id, submit, start, end, wait), as fairsim writes jobs.csv.

usage: easy.py TRACE.swf[.gz] OUT.csv
"""
import gzip
import heapq
import sys


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    procs_total, jobs = 0, []
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith(";"):
                if line.startswith("; MaxProcs:"):
                    procs_total = int(line.split(":")[1])
                continue
            v = line.split()
            if len(v) < 18:
                continue
            jid, submit, run = int(v[0]), int(v[1]), int(v[3])
            procs = int(v[7]) if int(v[7]) > 0 else int(v[4])
            limit = int(v[8]) if int(v[8]) > 0 else run
            if run < 0 or procs <= 0 or procs > procs_total:
                continue
            # a job past its limit is killed at it, as fairsim does
            jobs.append((submit, jid, procs, min(run, limit), limit))
    jobs.sort()
    return procs_total, jobs


def replay(total, jobs):
    free, now, i, n = total, 0, 0, len(jobs)
    queue, running, out = [], [], []  # running: heap of (end, limit_end, procs)
    while i < n or queue or running:
        nxt_arr = jobs[i][0] if i < n else None
        nxt_end = running[0][0] if running else None
        now = min(t for t in (nxt_arr, nxt_end) if t is not None)
        while running and running[0][0] == now:
            free += heapq.heappop(running)[2]
        while i < n and jobs[i][0] == now:
            queue.append(jobs[i])
            i += 1
        # start from the head while it fits
        while queue and queue[0][2] <= free:
            job = queue.pop(0)
            free -= job[2]
            started_one(job, now, running, out)
        if queue:
            head = queue[0]
            avail, shadow = free, None
            for lend, p in sorted((r[1], r[2]) for r in running):
                avail += p
                if avail >= head[2]:
                    shadow = lend
                    break
            extra = avail - head[2]
            rest = []
            for job in queue[1:]:
                p = job[2]
                if p <= free and (now + job[4] <= shadow or p <= extra):
                    if now + job[4] > shadow:
                        extra -= p
                    free -= p
                    started_one(job, now, running, out)
                else:
                    rest.append(job)
            queue[1:] = rest
    return out


def started_one(job, now, running, out):
    submit, jid, procs, run, limit = job
    heapq.heappush(running, (now + run, now + limit, procs))
    out.append((jid, submit, now, now + run, now - submit))


def main():
    total, jobs = read(sys.argv[1])
    out = replay(total, jobs)
    out.sort()
    with open(sys.argv[2], "w") as f:
        f.write("JobID,Submit,Start,End,Wait\n")
        f.writelines(f"{a},{b},{c},{d},{e}\n" for a, b, c, d, e in out)
    waits = [r[4] for r in out]
    print(f"python easy: {len(out)} jobs, mean wait {sum(waits) / max(len(waits), 1):.0f} s")


if __name__ == "__main__":
    main()
