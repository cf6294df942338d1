# expect: outside_mnt_data(path=/usr)
%%writefile /usr/local/bin/helper.py
print("installed")
