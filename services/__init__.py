"""Services below ui/ that are not Streamlit (class rooms, the training worker pool): nothing here imports it."""
