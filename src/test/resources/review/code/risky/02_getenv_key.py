# expect: env_access
key = os.getenv("OPENAI_API_KEY")
print(key[:8])
