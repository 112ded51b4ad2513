"""Reading a Markdown reply as it stands (no repair).

``body`` the reply as text and its Markdown body · ``blocks`` one markdown-it block scan,
cached · ``outline`` the heading tree · ``sections`` headings matched to the contract's
sections · ``lists`` and ``tables`` their contents.
"""
