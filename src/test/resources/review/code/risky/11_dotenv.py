# expect: credential_file
from dotenv import load_dotenv
load_dotenv()
