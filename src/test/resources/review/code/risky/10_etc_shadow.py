# expect: credential_file(file=/etc/shadow), outside_mnt_data(path=/etc)
print(open("/etc/shadow").read())
