# expect: large_write, subprocess
subprocess.run("fallocate -l 50G /mnt/data/huge.img", shell=True)
