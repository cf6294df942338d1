# expect: subprocess
os.system("whoami")
