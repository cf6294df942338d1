# expect: large_write, subprocess
!dd if=/dev/zero of=/mnt/data/disk.img bs=1M count=100000
