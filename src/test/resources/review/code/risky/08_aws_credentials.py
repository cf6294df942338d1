# expect: credential_file(file=.aws/credentials), outside_mnt_data(path=~)
path = os.path.expanduser("~/.aws/credentials")
print(open(path).read())
