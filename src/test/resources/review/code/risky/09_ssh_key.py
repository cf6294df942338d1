# expect: credential_file(file=.ssh/), credential_file(file=id_rsa), outside_mnt_data(path=/root)
with open("/root/.ssh/id_rsa") as f:
    key = f.read()
