# expect: subprocess
import subprocess
out = subprocess.run(["ls", "-la"], capture_output=True, text=True)
print(out.stdout)
