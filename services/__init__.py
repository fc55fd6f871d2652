"""Services that are not Streamlit (class rooms, the training worker pool). Nothing here imports Streamlit."""
