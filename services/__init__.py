"""Pure-Python services that sit below ui/ (class rooms, ...): they never import Streamlit."""
