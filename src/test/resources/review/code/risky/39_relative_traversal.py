# expect: outside_mnt_data(path=..)
data = open("../../../var/lib/app.db", "rb").read()
