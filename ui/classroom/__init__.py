"""Class rooms in the app: a teacher starts a class, students join with a link and follow the teacher's view,
and everyone can predict what the model computes, then see the answer.

- ../class_role.py (below this package): this session's part in a class (teacher, student, none), kept in
  st.session_state; ending it; switching pages with the room kept in the URL.
- room_state.py: the view a class follows, as room state: the page and its view (views/).
- follow.py: the one early call in app.py: join or resume from the URL, apply the teacher's view.
- teacher.py / student.py: the sidebar panels and their run_every fragments (publish; follow).
- join.py: the join link (never the key) and its QR code.
- ../room_models.py (below this package, for ui/models.py): models a teacher shared with the room, in its
  students' model picker.
- ask.py, answers.py: predict, then reveal (in a class, or alone); the true answers come from model/teach/questions.py.
- holdback.py: until the reveal, a student's page that could show the answer waits (its title and why).
- following.py: the slim "Following the teacher · Explore on my own" bar, and a follower's own touch → exploring.
- scroll.py: a follower's page scrolls to what the teacher changed (and to a new question).
The rooms themselves are services/rooms; nothing here touches room state except through its store.
"""
