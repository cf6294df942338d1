# expect: env_access, subprocess
!printenv
