# expect: credential_file(file=.kube/config), outside_mnt_data(path=~)
cfg = Path("~/.kube/config").expanduser().read_text()
