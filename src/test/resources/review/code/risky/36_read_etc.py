# expect: outside_mnt_data(path=/etc)
hosts = open("/etc/hosts").read()
