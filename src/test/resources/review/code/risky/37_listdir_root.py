# expect: outside_mnt_data(path=/home), outside_mnt_data(path=/)
print(os.listdir("/"))
print(os.listdir("/home"))
