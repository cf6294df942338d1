# expect: subprocess
from subprocess import check_output as co
print(co(["id"]))
