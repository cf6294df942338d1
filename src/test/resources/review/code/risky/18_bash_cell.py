# expect: subprocess
%%bash
ls -la
df -h
