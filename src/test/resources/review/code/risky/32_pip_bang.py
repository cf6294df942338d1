# expect: package_install, subprocess
!pip install --quiet some-package==1.2
