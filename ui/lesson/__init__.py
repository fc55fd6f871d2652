"""The Lesson page's glue: which lesson and slide (state.py), the slide's live view (views.py), "open this view"
(links.py), download and upload (files.py), "add this view to my lesson" (add.py); page.py steps the slides with
ui.presenter.step_buttons."""
