# expect: env_access
print(f"home is {os.environ['HOME']}")
