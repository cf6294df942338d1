# expect: subprocess
import pty
pty.spawn("/bin/sh")
