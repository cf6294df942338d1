# expect: env_access, outside_mnt_data(path=/proc)
with open("/proc/self/environ", "rb") as f:
    print(f.read().split(b"\0"))
