# expect: credential_file(file=.env)
with open(".env") as f:
    secrets = dict(line.strip().split("=", 1) for line in f if "=" in line)
