"""The functions that took 4 or more instructions per call in a
callgrind_annotate listing (self cost): functions.py LISTING CALLS."""
import re
import sys

SKIP = ('elf/', 'hwloc', 'dlfcn', 'strcmp', 'malloc', 'stdio', 'libio', 'setup',
        'numa_query', 'TOTALS')
calls = int(sys.argv[2])
for line in open(sys.argv[1]):
    m = re.match(r'\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+)', line)
    if not m or any(x in line for x in SKIP):
        continue
    per_call = int(m.group(1).replace(',', '')) / calls
    if per_call >= 4:
        print(f"  {per_call:6.1f} {m.group(2).split('/')[-1]}")
