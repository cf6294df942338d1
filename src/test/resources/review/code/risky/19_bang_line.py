# expect: subprocess, outside_mnt_data(path=/var)
files = !ls /var/log
print(files)
