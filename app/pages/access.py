"""Access (admins only): who may see and review each data room.

Grants are the store's (agents/store/access.py): an admin grants a person, by e-mail address, the role
reviewer (reads the room, decides findings, edits the memo, starts runs) or viewer (reads only).
"""

import streamlit as st

from app.session import auth, services

st.title("Access to data rooms")
settings = services.settings()
if not auth.is_admin(settings):  # the store refuses a non-admin's grant too; this page is not in their menu
    st.error("Only an admin of this installation manages access to data rooms.", icon=":material/block:")
    st.stop()
store = auth.store(settings)
rooms = auth.room_names(settings)
if not rooms:
    st.info("No data room yet. Add one on **Data rooms**, then grant access here.")
    st.stop()
if not auth.signin_enabled():
    st.caption("Sign-in is off (one local user): grants are kept and apply once sign-in is configured.")
room = st.selectbox("Data room", rooms, key="access_room")
grants = store.grants(room)
st.subheader("People with access")
if grants:
    st.dataframe([{"person": who, "role": role} for who, role in grants.items()], hide_index=True)
else:
    st.caption("Nobody yet besides the admins, who see every room.")
with st.form("grant", clear_on_submit=True):
    c = st.columns([3, 1])
    email = c[0].text_input("E-mail address", placeholder="colleague@firm.example")
    role = c[1].selectbox("Role", ["viewer", "reviewer"],
                          help="viewer: reads the room, its findings, memo and exports. reviewer: also decides "
                               "findings, edits the memo and starts runs.")
    if st.form_submit_button("Grant", type="primary") and email.strip():
        store.grant(room, email, role)
        st.rerun()
if grants:
    with st.form("revoke"):
        who = st.selectbox("Remove access of", list(grants))
        if st.form_submit_button("Remove access"):
            store.revoke(room, who)
            st.rerun()
