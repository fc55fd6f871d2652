"""Pure figure builders: NumPy arrays / a Trace in, plotly go.Figure out. Never imports Streamlit."""
