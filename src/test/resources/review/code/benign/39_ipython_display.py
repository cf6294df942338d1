from IPython.display import display, Markdown
display(Markdown("## Summary"))
display(df.head())
x = 10 % 3
print(x != 2)
