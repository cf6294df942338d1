# expect: package_install, subprocess
os.system("apt-get install -y nmap")
