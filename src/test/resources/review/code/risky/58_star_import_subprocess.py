# expect: subprocess
from subprocess import *
Popen(["sleep", "1"])
