instructions = "To reproduce locally run: pip install pandas && python analyze.py"
print(instructions)
print("!ls is a notebook shell escape; we do not use it here")
