# expect: subprocess
print(os.popen("uname -a").read())
