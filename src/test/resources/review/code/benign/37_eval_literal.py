# Evaluate a fixed expression (no user input)
result = eval("2 ** 10")
print(result)
import ast
parsed = ast.literal_eval("[1, 2, 3]")
print(parsed)
