# Explain to the user how configuration works
note = "The app reads its settings from os.environ at startup; we do not touch it here."
print(note)
print('Set HTTP_PROXY=http://proxy.example.com:3128 in your shell if you need a proxy.')
