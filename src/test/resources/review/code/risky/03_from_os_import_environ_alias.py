# expect: env_access
from os import environ as env
print(env.get("AWS_SECRET_ACCESS_KEY"))
